// What a reviewer's browser sends when it leaves a note: a plain HTML form POST
// (application/x-www-form-urlencoded) to `<review link>/notes`. Examples and tests post notes this
// way, the only way notes get posted (the API has no action for it: catalog 4.8).

export interface ReviewNoteForm {
  /** The paragraph the note is about; empty or absent for a note on the whole script. */
  paragraph_id?: string;
  /** The reviewer's name (optional). */
  name?: string;
  body: string;
}

/** Posts a note through a review link as a browser's form would; the response (a 303 is followed). */
export async function postReviewNote(reviewUrl: string, note: ReviewNoteForm, init: { redirect?: RequestRedirect } = {}): Promise<Response> {
  const form = new URLSearchParams({ paragraph_id: note.paragraph_id ?? "", name: note.name ?? "", body: note.body });
  return fetch(`${reviewUrl}/notes`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form, redirect: init.redirect ?? "follow" });
}
