// Which sentences of a model's research report may stand without a citation: only those wholly
// about the records not saying something. A sentence that also states a fact is a claim.
import { describe, expect, test } from "bun:test";
import { mayStandUncited } from "../../src/engines/llm/research-engine.ts";

describe("mayStandUncited", () => {
  test("the records saying nothing, in the phrasings models use, stands", () => {
    for (const s of [
      "The firm's records hold nothing on this question.",
      "The records do not say who its investors are.",
      "No passage mentions churn.",
      "None of the documents addresses pricing.",
      "Nothing in the records covers the 2023 burn.",
      "There is no data on net revenue retention.",
      "- The documents don't state the round's lead investor.",
    ]) {
      expect(mayStandUncited(s, []), s).toBe(true);
    }
  });

  test("a sentence that states something as well, or whose subject is a figure rather than the records, is removed", () => {
    for (const s of [
      "Revenue data does not include churn; ARR grew 3x.",
      "Revenue data does not include churn.",
      "The documents do not mention churn, but ARR grew 3x.",
      "The records don't state churn and ARR grew 3x.",
      "The records do not cover Europe, which is its largest market.",
      "Ledgerly's data shows 40% growth; the documents do not say more.",
    ]) {
      expect(mayStandUncited(s, []), s).toBe(false);
    }
  });
});
