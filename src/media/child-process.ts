// Child processes that must not outlive the worker that started them (ffmpeg under a render): a
// worker killed with SIGKILL cannot stop its children, and an orphaned ffmpeg would keep a core
// and its work directory. Linux's parent-death signal kills the child when its parent dies;
// util-linux's `setpriv --pdeathsig` sets it on exec. Where setpriv is missing, orphans are
// reaped when the next worker starts (src/operations/orphans.ts).
import { existsSync } from "node:fs";

const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((candidate) => existsSync(candidate));

/** The command and arguments that run `command args` killed with SIGKILL when this process dies. */
export function dyingWithParent(command: string, args: readonly string[]): [string, string[]] {
  return SETPRIV ? [SETPRIV, ["--pdeathsig", "KILL", "--", command, ...args]] : [command, [...args]];
}
