// Names as lookups match them.

/** Case- and space-insensitive name key: "  Jane   DOE " -> "jane doe". */
export function nameKey(raw: string | null | undefined): string | null {
  const n = raw?.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
  return n ? n : null;
}
