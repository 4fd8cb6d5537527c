// The status of an operation's subject (docs/operations.md, "The subject's status"): the record an
// operation drives (a generation, a song, a flow execution) shows the operation's state in a
// status column of its own. Each move of it is one conditional update in the transaction of the
// operation's own move, from the states it may leave: a duplicate job, a late worker or a sweep
// that moved it already finds it elsewhere and changes nothing.
import type { Tx } from "../db/transaction.js";
import type { OperationRow } from "./kind.js";

/** The one Prisma call a mover makes on the subject's table. */
interface ConditionalUpdate<Data, Row> {
  updateManyAndReturn(args: { where: Record<string, unknown>; data: Data }): PromiseLike<Row[]>;
}

/** Where the subject lives: its table, the column naming it (the operation's subject_id) and its status column. */
export interface SubjectTable<Data, Row> {
  table(tx: Tx): ConditionalUpdate<Data, Row>;
  id: string;
  status: string;
  /** The status while the operation waits to run (queued, or retaken); `pending` unless given. */
  waiting?: string;
  /** The status while the work runs; `running` unless given. */
  running?: string;
}

export interface SubjectStatus<Data, Row> {
  /** Moves the subject from one of `from` with `data`: the row as it now is, or undefined when it was in another state. */
  move(this: void, tx: Tx, operation: OperationRow, from: readonly string[], data: Data): Promise<Row | undefined>;
  /** queued → running: the subject moves from waiting to running. */
  onStart(this: void, tx: Tx, operation: OperationRow): Promise<void>;
  /** A dead worker's operation is retaken: the subject moves from running back to waiting. */
  onRetake(this: void, tx: Tx, operation: OperationRow): Promise<void>;
}

export function subjectStatus<Data, Row>(subject: SubjectTable<Data, Row>): SubjectStatus<Data, Row> {
  const waiting = subject.waiting ?? "pending";
  const running = subject.running ?? "running";
  const move = async (tx: Tx, operation: OperationRow, from: readonly string[], data: Data): Promise<Row | undefined> => {
    const [row] = await subject.table(tx).updateManyAndReturn({ where: { [subject.id]: operation.subject_id, [subject.status]: { in: [...from] } }, data });
    return row;
  };
  // A status alone is data every table of a subject takes.
  const statusOnly = (status: string) => ({ [subject.status]: status }) as Data;
  return {
    move,
    async onStart(tx, operation) {
      await move(tx, operation, [waiting], statusOnly(running));
    },
    async onRetake(tx, operation) {
      await move(tx, operation, [running], statusOnly(waiting));
    },
  };
}

/** The error message a failed operation leaves on its subject: code and message, cut to what the column keeps. */
export function failureMessage(failure: { code: string; message: string }): string {
  return `${failure.code}: ${failure.message}`.slice(0, 2000);
}
