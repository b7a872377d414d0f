/** PKCE (RFC 7636): a random verifier and its S256 challenge, so an intercepted code is useless alone. */
import { createHash, randomBytes } from "node:crypto";

/** A fresh verifier and the challenge sent in the authorize URL. */
export function createPkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}
