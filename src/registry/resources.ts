// Every resource the API serves. Adding one is adding its declaration here.
import type { ResourceDefinition } from "./resource.js";
import { videos } from "../videos/resource.js";
import { folders } from "../folders/resource.js";

export const RESOURCES: readonly ResourceDefinition[] = [videos, folders];

export function resourceByName(name: string): ResourceDefinition | undefined {
  return RESOURCES.find((resource) => resource.name === name);
}
