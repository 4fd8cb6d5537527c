// The 404 of a path no route matches; an unknown action name gets a suggestion.
import { ApiError } from "../../src/errors/api-error.js";
import { actionNames } from "../../src/actions/catalog.js";
import { didYouMean } from "../../src/validation/did-you-mean.js";
import { API_BASE_PATH } from "../sofa.js";

/** 404 for an unknown path; an action the catalog declares but the service does not run yet says so. */
export function routeNotFound(method: string, path: string): ApiError {
  const action = /^\/actions\/([^/]+)$/.exec(path)?.[1];
  if (action) {
    const declared = actionNames().includes(action);
    const suggestion = declared ? undefined : didYouMean(action, actionNames());
    return new ApiError(
      "not_found",
      declared
        ? `The action ${action} is in the catalog but not available yet.`
        : `No action named ${action}.${suggestion ? ` Did you mean ${suggestion}?` : ""}`,
      { param: "action", details: { action, available: false, ...(suggestion && { did_you_mean: suggestion }) } },
    );
  }
  return new ApiError("not_found", `No route ${method} ${API_BASE_PATH}${path}.`);
}
