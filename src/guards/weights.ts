// How many rate-window units heavy requests count for (documented in docs/guards.md). Every
// request counts one; these add the rest before the work starts.
import { currentRequestContext } from "../context/request-context.js";

/** An ndjson or csv export, whatever its size. */
export const EXPORT_WEIGHT = 10;

/**
 * Charges a request `units` in all (it has already counted one); a call that spends credits also
 * counts against the credits budget, whatever its weight.
 */
export async function chargeWeight(units: number, options: { spendsCredits?: boolean } = {}): Promise<void> {
  await currentRequestContext()?.meter?.charge(units - 1, options);
}
