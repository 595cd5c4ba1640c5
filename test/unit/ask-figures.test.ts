// The LLM engine's check of a model's answer: a figure no operation returned (nor the question
// said) is removed and counted; written figures match the operations' within their rounding
// ("1.2M" for 1,185,000, "14.6%" for 0.146); dates must be ones the operations returned.
import { expect, test } from "bun:test";
import { checkFigures } from "../../src/engines/llm/ask-figures.ts";

const texts = ["Runway: 18 months as of 2024-02-29.", "ARR: 1,185,000 USD as of 2024-02-29."];
const data = [{ runway: { months: 18 }, irr: 0.146, tvpi: 1.146 }];

test("figures the operations returned are kept, as written", () => {
  for (const answer of [
    "Acme Robotics has 18 months of runway and 1.2M USD ARR.",
    "ARR is $1,185,000 (2024-02-29).",
    "IRR 14.6%, TVPI 1.15x.",
    "About 1.19 million in ARR.",
  ]) {
    expect(checkFigures(answer, texts, data), answer).toEqual({ text: answer, removed: 0 });
  }
});

test("figures no operation returned are removed and counted", () => {
  expect(checkFigures("Acme has 24 months of runway and $3M ARR.", texts, data)).toEqual({ text: "Acme has [removed] months of runway and [removed] ARR.", removed: 2 });
  expect(checkFigures("Its IRR is 22%.", texts, data)).toEqual({ text: "Its IRR is [removed].", removed: 1 });
  expect(checkFigures("As of 2025-01-31 it had 18 months.", texts, data)).toEqual({ text: "As of [removed] it had 18 months.", removed: 1 });
});

test("a figure the question said is the partner's own, kept", () => {
  expect(checkFigures("The top 3 are listed.", ["top 3 deals by score", ...texts], data).removed).toBe(0);
});

test("digits inside identifiers are no figures: an invented count is removed even when an id happens to contain it", () => {
  const withIds = [{ company_id: "8c1f42ab-1d42-4e42-9a42-0042deadbeef", name: "Series42 Labs", runway: { months: 18 } }];
  expect(checkFigures("Acme has 42 customers and 18 months of runway.", texts, withIds)).toEqual({ text: "Acme has [removed] customers and 18 months of runway.", removed: 1 });
  expect(checkFigures("Acme has 42 customers.", ["Deal 8c1f42ab-1d42-4e42-9a42-0042deadbeef: 18 months"], [])).toEqual({ text: "Acme has [removed] customers.", removed: 1 });
});
