// The one 403 insufficient_scope body (contract 5.7): every required and every granted scope, so
// a client can see what its key lacks whichever surface or mechanism refused it.
import { ApiError } from "../errors/api-error.js";
import { missingScopes } from "./scopes.js";

export function insufficientScope(granted: readonly string[], required: readonly string[], message?: string): ApiError {
  const missing = missingScopes(granted, required);
  return new ApiError("insufficient_scope", message ?? `This key lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}.`, {
    details: { required_scopes: [...required], granted_scopes: [...granted] },
    hint: "Create a key with the required scopes, or add them to this key.",
  });
}
