// App screenshots (catalog 4.7): generate, still pending (list / create / update / delete are live
// in src/app_screenshots/).
import { z } from "zod";
import { defineFamily, id, label } from "./define.js";

export const APP_SCREENSHOTS_ACTIONS = defineFamily("app_screenshots", [
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
