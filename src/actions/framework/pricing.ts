// What a call costs, from the catalog's price (docs/credits.md) and the call's input.
import type { ActionDefinition } from "../catalog.js";

function countOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return 1;
}

/**
 * Price units of a call: 1 per call, or what the action's units hook counted (it wins: an input
 * may change what the unit field counts, as characters.smart_variants' analyze_only does), or the
 * unit field's count.
 */
export function unitsOf(action: ActionDefinition, input: Record<string, unknown>, recordUnits?: number): number {
  if (!action.credits) return 1;
  const price = action.price;
  let units = 1;
  if (price.per && price.per !== "call") units = recordUnits ?? (price.unit_field ? countOf(input[price.unit_field]) : 1);
  if (price.max_units !== undefined) units = Math.min(units, price.max_units);
  return units;
}

/** Whole credits of `units` price units (times the multiplier field, when the price has one). */
export function costOfUnits(action: ActionDefinition, input: Record<string, unknown>, units: number): number {
  if (!action.credits) return 0;
  const price = action.price;
  const times = price.times_field ? countOf(input[price.times_field]) : 1;
  return Math.max(0, Math.ceil(price.credits * units * times));
}

/** Whole credits; `recordUnits` is what the handler counted when the price has no unit field. */
export function priceOf(action: ActionDefinition, input: Record<string, unknown>, recordUnits?: number): number {
  return costOfUnits(action, input, unitsOf(action, input, recordUnits));
}
