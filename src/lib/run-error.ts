/**
 * A failure whose message is meant for the client: an analysis run that throws it ends `failed`
 * with this message as its `error` (anything else is logged and reported as an internal error).
 */
export class RunError extends Error {}
