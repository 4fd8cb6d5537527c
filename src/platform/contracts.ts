// The printed forms of the API's two contracts, as checked in under schema/.
import { printSchema } from "graphql";
import { getSchema } from "./schema.js";
import { createSofaHandler } from "../../rest/sofa.js";
import { buildOpenApiDocument } from "../../rest/openapi.js";

export function printedContracts(): { sdl: string; openapi: string } {
  const schema = getSchema();
  return {
    sdl: `${printSchema(schema)}\n`,
    openapi: `${JSON.stringify(buildOpenApiDocument(createSofaHandler(schema)), null, 2)}\n`,
  };
}
