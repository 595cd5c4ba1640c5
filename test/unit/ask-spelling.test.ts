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
  expect(respell("protfolio", "protfolio")).toBe("portfolio");
  expect(respell("compnaies", "compnaies")).toBe("companies");
  expect(respell("runwya", "runwya")).toBe("runway");
  expect(respell("dilligence", "dilligence")).toBe("diligence");
  expect(respell("distrubutions", "distrubutions")).toBe("distributions");
  expect(respell("robotcs", "robotcs")).toBe("robotics");
  expect(respell("mosiac", "Mosiac")).toBe("mosaic");
  expect(respell("fnud", "fnud")).toBe("fund");
});

test("left as written: known and ordinary words, names of people, short words, other first letters, ties", () => {
  expect(respell("founded", "founded")).toBe("founded");
  expect(respell("exist", "exist")).toBe("exist");
  // "Dana" is one letter from "data", but a capitalised word is a name, respelt only to a name.
  expect(respell("dana", "Dana")).toBe("dana");
  // Short words only by a swap: "burr" is not "burn".
  expect(respell("burr", "burr")).toBe("burr");
  expect(respell("arr", "arr")).toBe("arr");
  expect(respell("kunway", "kunway")).toBe("kunway");
  expect(respell("the", "the")).toBe("the");
  expect(respell("q3", "q3")).toBe("q3");
});
