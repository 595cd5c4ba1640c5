// Respelling misspelt words of the reader's vocabulary and of the firm's names: near-certain cases
// only (one edit, a swap for short words, the first letter right), names only to names, and
// ordinary words never.
import { expect, test } from "bun:test";
import { editDistance, speller } from "../../src/engines/builtin/ask-spelling.ts";

const vocabulary = ["portfolio", "companies", "runway", "diligence", "distributions", "founder", "exits", "data", "deals", "burn", "fund"];
const names = ["mosaic", "treasury", "mosaictreasury", "acme", "robotics"];
const respell = speller(vocabulary, names, (w) => ["the", "what"].includes(w));

test("edit distance counts a swap of neighbours as one edit and stops beyond the bound", () => {
  expect(editDistance("runwya", "runway", 2)).toBe(1);
  expect(editDistance("dilligence", "diligence", 2)).toBe(1);
  expect(editDistance("abc", "xyz", 1)).toBe(2);
});

test("misspellings of known words and names are respelt", () => {
  const cases: [word: string, written: string, respelt: string][] = [
    ["protfolio", "protfolio", "portfolio"],
    ["compnaies", "compnaies", "companies"],
    ["runwya", "runwya", "runway"],
    ["dilligence", "dilligence", "diligence"],
    ["distrubutions", "distrubutions", "distributions"],
    ["robotcs", "robotcs", "robotics"],
    ["mosiac", "Mosiac", "mosaic"],
    ["fnud", "fnud", "fund"],
  ];
  for (const [word, written, respelt] of cases) expect(respell(word, written), word).toBe(respelt);
});

test("left as written: known and ordinary words, names of people, short words, other first letters", () => {
  // "Dana" is one letter from "data", but a capitalised word is a name, respelt only to a name;
  // short words only by a swap ("burr" is not "burn").
  const kept: [word: string, written: string][] = [
    ["founded", "founded"],
    ["exist", "exist"],
    ["dana", "Dana"],
    ["burr", "burr"],
    ["arr", "arr"],
    ["kunway", "kunway"],
    ["the", "the"],
    ["q3", "q3"],
  ];
  for (const [word, written] of kept) expect(respell(word, written), word).toBe(word);
});
