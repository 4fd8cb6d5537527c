// What a call costs, from the catalog's price (docs/credits.md) and the call's input.
import type { ActionDefinition } from "../catalog.js";

function unitsOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return 1;
}

/** Whole credits; `recordUnits` is what the handler counted when the price has no unit field. */
export function priceOf(action: ActionDefinition, input: Record<string, unknown>, recordUnits?: number): number {
  if (!action.credits) return 0;
  const price = action.price;
  let units = 1;
  if (price.per && price.per !== "call") {
    units = price.unit_field ? unitsOf(input[price.unit_field]) : (recordUnits ?? 1);
  }
  if (price.times_field) units *= unitsOf(input[price.times_field]);
  if (price.max_units !== undefined) units = Math.min(units, price.max_units);
  return Math.max(0, Math.ceil(price.credits * units));
}
