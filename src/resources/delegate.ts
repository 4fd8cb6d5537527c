// Generic access to the Prisma delegate of a resource's model. The resource layer is generic
// over models, so the delegate is typed loosely here and nowhere else.
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";

/** The subset of a Prisma model delegate the generic resource layer uses. */
export interface ModelDelegate {
  findUnique(args: Record<string, unknown>): Promise<Record<string, unknown> | null>;
  findMany(args: Record<string, unknown>): Promise<Record<string, unknown>[]>;
  count(args: Record<string, unknown>): Promise<number>;
  create(args: Record<string, unknown>): Promise<Record<string, unknown>>;
  update(args: Record<string, unknown>): Promise<Record<string, unknown>>;
  delete(args: Record<string, unknown>): Promise<Record<string, unknown>>;
  deleteMany(args: Record<string, unknown>): Promise<{ count: number }>;
  createMany(args: Record<string, unknown>): Promise<{ count: number }>;
}

export function delegateFor(client: PrismaClient | Tx, model: string): ModelDelegate {
  const key = model.charAt(0).toLowerCase() + model.slice(1);
  const delegate = (client as unknown as Record<string, ModelDelegate | undefined>)[key];
  if (!delegate) throw new Error(`No Prisma delegate for model ${model}`);
  return delegate;
}
