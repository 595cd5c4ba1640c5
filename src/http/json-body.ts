// JSON request bodies, judged only after the caller is: a route's parser (which Elysia runs before
// the transform hook where the key is checked) merely holds the body back, and the auth hook reads
// it once the key is known. An unauthenticated client cannot make the server buffer or parse a body.
import { ApiError } from "./errors.ts";
import { hasContent, JSON_BODY_MAX_BYTES, MB, readBounded } from "./request-body.ts";

// Holding the body also keeps Elysia's own parsers away: they would quietly accept a text/plain or
// urlencoded body, or turn an array or a bare string into `{}` for an all-optional schema.
const HELD_BODY = Symbol("held-body");
type HeldBody = { [HELD_BODY]: string };

const badBody = (msg: string, type: string) => new ApiError(422, [{ loc: ["body"], msg, type }]);
const unsupportedMedia = (got: string) =>
  new ApiError(415, `This endpoint expects application/json; the request sent ${got}. Nothing was changed.`);
const tooLarge = () =>
  new ApiError(413, `The request body is larger than ${JSON_BODY_MAX_BYTES / MB} MB, the most a JSON request may carry. Nothing was changed.`);

/** Elysia hands a parser the media type without its parameters, or "" when there is none. */
export function holdBody({ request }: { request: Request }, contentType: string): HeldBody | undefined {
  return request.body ? { [HELD_BODY]: contentType.trim().toLowerCase() } : undefined;
}

export const isHeld = (body: unknown): body is HeldBody => !!body && typeof body === "object" && HELD_BODY in body;

/**
 * The JSON object a request carries, or undefined for no body. An empty body is no body, whatever
 * its media type says; a non-empty one must be application/json, within JSON_BODY_MAX_BYTES.
 */
async function readJsonBody(request: Request, media: string): Promise<object | undefined> {
  let text: string;
  try {
    if (media !== "application/json") {
      if (!(await hasContent(request))) return undefined;
      throw unsupportedMedia(media || "a body without a Content-Type");
    }
    const read = await readBounded(request, JSON_BODY_MAX_BYTES);
    if ("overLimit" in read) throw tooLarge();
    text = new TextDecoder().decode(read.bytes);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badBody("The request body could not be read", "body_unreadable");
  }
  if (text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = text.trim() === "" ? "the body is only whitespace" : (error as Error).message;
    throw badBody(`Invalid JSON: ${why}`, "json_invalid");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badBody("Input should be a JSON object", "model_attributes_type");
  }
  return value;
}

/** The held body, read now: see readJsonBody. */
export function readHeldBody(request: Request, held: HeldBody): Promise<object | undefined> {
  return readJsonBody(request, held[HELD_BODY]);
}
