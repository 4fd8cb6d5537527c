// The live actions (those with a file under src/<family>/actions/), in the catalog's order.
import { ACTIONS } from "./catalog.js";
import { isLiveAction, type LiveAction } from "./framework/action.js";

export const LIVE_ACTIONS: readonly LiveAction[] = ACTIONS.filter(isLiveAction);

const byName = new Map(LIVE_ACTIONS.map((action) => [action.name, action]));

export function liveAction(name: string): LiveAction | undefined {
  return byName.get(name);
}
