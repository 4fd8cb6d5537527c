// The action catalog as a flow sees it (kept apart from the resource so the resource does not
// import the catalog, which imports every action, flows' own included).
import { actionByName } from "../actions/catalog.js";
import { isLiveAction, type LiveAction } from "../actions/framework/action.js";
import type { ActionLookup } from "./graph.js";

export const catalogLookup: ActionLookup = {
  exists: (name) => actionByName(name) !== undefined,
  live: (name) => {
    const action = actionByName(name);
    return action !== undefined && isLiveAction(action);
  },
};

/** The live action a node calls (checked when the flow was saved; checked again when it runs). */
export function liveActionOf(name: string): LiveAction | undefined {
  const action = actionByName(name);
  return action && isLiveAction(action) ? action : undefined;
}
