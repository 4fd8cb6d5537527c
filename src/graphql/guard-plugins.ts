// The guards every GraphQL operation passes on /graphql (docs/security.md): values PostgreSQL can
// store, before anything runs.
import type { Plugin } from "graphql-yoga";
import { useStorableInput } from "./storable-input.js";

export function graphqlGuardPlugins(): Plugin[] {
  return [useStorableInput()];
}
