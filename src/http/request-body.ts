// Request bodies read with a cap. Bun accepts bodies up to its server-wide maxRequestBodySize
// (128 MB by default), far more than any JSON request or web form needs, so what a route reads
// whole is bounded here: a Content-Length over the cap is refused before a byte is read, and a
// chunked body (no Content-Length) is read only until it passes the cap.

export const MB = 1024 * 1024;

/**
 * The largest JSON body any route takes. The biggest legitimate one is a raw verification email
 * (`message`, up to 2,000,000 characters of mostly ASCII RFC 5322 text, whose line breaks and
 * quotes JSON escapes as two bytes each); research queries (20,000 characters) and warmth
 * lookups (100 identifiers) are far smaller.
 */
export const JSON_BODY_MAX_BYTES = 4 * MB;

/** The Content-Length a request declares; null when it sends none (a chunked body) or nonsense. */
export function declaredLength(request: Request): number | null {
  const raw = request.headers.get("content-length");
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

export type BoundedBody = { bytes: Uint8Array } | { overLimit: true };

/**
 * The whole body, or `overLimit` (without reading it, or having stopped reading at the first
 * chunk past the cap). No body at all reads as zero bytes. Rejects when the client breaks off.
 */
export async function readBounded(request: Request, maxBytes: number): Promise<BoundedBody> {
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBytes) return { overLimit: true };
  if (!request.body) return { bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { overLimit: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes };
}

/**
 * Whether the request carries at least one byte of body: by its Content-Length, else by reading
 * only until the first byte arrives. For refusing a body of the wrong type without reading it.
 */
export async function hasContent(request: Request): Promise<boolean> {
  const declared = declaredLength(request);
  if (declared !== null) return declared > 0;
  if (!request.body) return false;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
