// Signing deliveries (contract 6.2): X-Service-Signature is `t=<unix seconds>,v1=<hex>`, the hex
// being HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. During a rotation's grace
// period a second v1 signs with the old secret, so receivers can switch without a gap. Receivers
// reject a t more than five minutes off.
import { createHmac, randomBytes } from "node:crypto";

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signPayload(secret, timestamp, body)}`)].join(",");
}
