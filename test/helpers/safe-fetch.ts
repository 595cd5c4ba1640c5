// Shared by the safe-fetch tests.
import { expect } from "bun:test";
import { SafeFetchError } from "../../src/lib/safe-fetch.ts";

/** The SafeFetchError the work is refused with; fails the test if it succeeds. */
export async function refusal(work: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(SafeFetchError);
    return error as SafeFetchError;
  }
  throw new Error("expected a SafeFetchError, got a result");
}
