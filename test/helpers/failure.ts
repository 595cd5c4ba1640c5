/** The error a promise rejects with; throws when it resolves (a test expecting a failure must not pass silently). */
export async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error("did not fail");
}
