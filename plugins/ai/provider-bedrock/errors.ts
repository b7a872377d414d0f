/**
 * Turns what the AWS SDK throws into one clear line, and into an error the shared retry loop reads
 * (`status`). Service exceptions keep AWS's own message behind the prefix pi 1.6 gives them ("Throttling
 * error: ...", "Validation error: ..."), which the session's retry and overflow checks match on.
 */

/** A failed request or stream, in the shape `withRetry` and `isTransientError` read. */
export class BedrockRequestError extends Error {
  override readonly name = "BedrockRequestError";
  /** HTTP status, when AWS answered with one. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}

const PREFIXES: Record<string, string> = {
  InternalServerException: "Internal server error",
  ModelStreamErrorException: "Model stream error",
  ValidationException: "Validation error",
  ThrottlingException: "Throttling error",
  ServiceUnavailableException: "Service unavailable",
  AccessDeniedException: "Access denied",
  ResourceNotFoundException: "Not found",
  ModelNotReadyException: "Model not ready",
  ModelTimeoutException: "Model timeout",
  ServiceQuotaExceededException: "Service quota exceeded",
};

/** Errors of the SDK's credential chain: the fix is the user's AWS setup, so say so. */
const CREDENTIAL_ERRORS = new Set(["CredentialsProviderError", "TokenProviderError"]);

/** Converts an SDK (or network) error into a BedrockRequestError. */
export function toRequestError(error: unknown): BedrockRequestError {
  if (error instanceof BedrockRequestError) return error;
  const e = error as {
    name?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: unknown };
    code?: unknown;
  } | null;
  const name = typeof e?.name === "string" ? e.name : "";
  const message = typeof e?.message === "string" && e.message !== "" ? e.message : String(error);
  const status = typeof e?.$metadata?.httpStatusCode === "number" ? e.$metadata.httpStatusCode : undefined;
  if (CREDENTIAL_ERRORS.has(name))
    return new BedrockRequestError(
      `No AWS credentials for Bedrock: ${message}. Set AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK`,
      { cause: error },
    );
  const prefix = PREFIXES[name] ?? (name.endsWith("Exception") ? name : undefined);
  if (prefix !== undefined) {
    const text = message === "UnknownError" && status !== undefined ? `HTTP ${status}` : message;
    return new BedrockRequestError(`${prefix}: ${text}`, { status, cause: error });
  }
  const failure = new BedrockRequestError(`Request to Bedrock failed: ${message}`, { status, cause: error });
  if (typeof e?.code === "string") Object.assign(failure, { code: e.code });
  return failure;
}
