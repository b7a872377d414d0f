/**
 * One-line error messages for a failed stream. The API's own words are kept ("prompt is too long" is
 * what context-overflow handling looks for); SDK wrappers and undici's bare "terminated" get their cause
 * appended so the user can tell a dropped connection from a refused one.
 */

/** The text of `errorMessage` for a failure. */
export function describeError(error: unknown): string {
  if (error === null || typeof error !== "object") return String(error);
  const e = error as { message?: unknown; status?: unknown; type?: unknown; apiMessage?: unknown; cause?: unknown };
  if (typeof e.status === "number" && typeof e.apiMessage === "string") {
    return `${e.status} ${typeof e.type === "string" ? `${e.type}: ` : ""}${e.apiMessage}`;
  }
  const message = typeof e.message === "string" && e.message !== "" ? e.message : JSON.stringify(error);
  const cause = e.cause as { message?: unknown } | undefined;
  if (
    cause !== null &&
    typeof cause === "object" &&
    typeof cause.message === "string" &&
    cause.message !== "" &&
    !message.includes(cause.message)
  ) {
    return `${message} (${cause.message})`;
  }
  return message;
}

/** The message for a stream the caller aborted. */
export const ABORTED_MESSAGE = "Request was aborted";
