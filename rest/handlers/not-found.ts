// The 404 of a path no route matches; an unknown action name gets a suggestion.
import { ApiError } from "../../src/errors/api-error.js";
import { actionNames } from "../../src/actions/catalog.js";
import { didYouMean } from "../../src/validation/did-you-mean.js";
import { API_BASE_PATH } from "../sofa.js";

/** 404 for an unknown path; an unknown action name gets the nearest one (every action of the catalog has its route). */
export function routeNotFound(method: string, path: string): ApiError {
  const action = /^\/actions\/([^/]+)$/.exec(path)?.[1];
  if (action) {
    const suggestion = didYouMean(action, actionNames());
    return new ApiError("not_found", `No action named ${action}.${suggestion ? ` Did you mean ${suggestion}?` : ""}`, {
      param: "action",
      details: { action, available: false, ...(suggestion && { did_you_mean: suggestion }) },
    });
  }
  return new ApiError("not_found", `No route ${method} ${API_BASE_PATH}${path}.`);
}
