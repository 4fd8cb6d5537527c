// App screenshots (catalog 4.7).
import { z } from "zod";
import { defineFamily, id, json, label, name, prompt } from "./define.js";

export const APP_SCREENSHOTS_ACTIONS = defineFamily("app_screenshots", [
  {
    name: "app_screenshots.list",
    method: "GET",
    scopes: ["videos:read"],
    credits: false,
    input: z.strictObject({}),
    weight: 1,
    purpose: "app-screenshot projects",
  },
  {
    name: "app_screenshots.create",
    method: "POST",
    scopes: ["videos:write"],
    credits: false,
    input: z.strictObject({ project_name: name() }),
    weight: 1,
    purpose: "create an app-screenshot project",
  },
  {
    name: "app_screenshots.update",
    method: "POST",
    scopes: ["videos:write"],
    credits: false,
    input: z.strictObject({
      project_id: id(),
      project_name: name().optional(),
      global_prompt: prompt().optional(),
      global_references: json().optional(),
      agent_id: id().optional(),
      screens: json().optional(),
    }),
    weight: 1,
    purpose: "update a project",
  },
  {
    name: "app_screenshots.delete",
    method: "POST",
    scopes: ["videos:delete"],
    credits: false,
    input: z.strictObject({ project_id: id() }),
    weight: 1,
    purpose: "delete a project",
  },
  {
    name: "app_screenshots.generate",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      project_id: id(),
      screen_id: id(),
      size: label().optional(),
      quality: label().optional(),
    }),
    price: { credits: 4, per: "call" },
    weight: 5,
    purpose: "generate one store screenshot from a project",
  },
]);
