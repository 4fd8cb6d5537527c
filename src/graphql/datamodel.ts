// The Prisma datamodel (from the Pothos generator) is the one source of field names, types and
// nullability: GraphQL types, input validation and the drift test all read it from here.
import { getDatamodel } from "../generated/pothos-types.js";

export interface ModelField {
  name: string;
  /** Prisma scalar type: String, Boolean, Int, Float, BigInt, DateTime, Json, or a model name. */
  type: string;
  kind: "scalar" | "object" | "enum";
  isRequired: boolean;
  isList: boolean;
  hasDefaultValue: boolean;
  isId: boolean;
  isUpdatedAt: boolean;
}

/** Parsed once; the Pothos builder reads the same object. */
export const datamodel = getDatamodel();

export function modelFields(model: string): ModelField[] {
  const entry = datamodel.datamodel.models[model];
  if (!entry) throw new Error(`Unknown Prisma model ${model}`);
  return entry.fields as unknown as ModelField[];
}

export function scalarFields(model: string): ModelField[] {
  return modelFields(model).filter((field) => field.kind !== "object");
}

export function modelNames(): string[] {
  return Object.keys(datamodel.datamodel.models);
}
