// The action catalog as a flow sees it: whether a node's action exists (checked when the flow is
// saved) and the action a node runs (checked again when it runs).
import { actionByName } from "../actions/catalog.js";
import type { LiveAction } from "../actions/framework/action.js";
import type { ActionLookup } from "./graph.js";

export const catalogLookup: ActionLookup = {
  exists: (name) => actionByName(name) !== undefined,
};

/** The action a node calls. */
export function liveActionOf(name: string): LiveAction | undefined {
  return actionByName(name);
}
