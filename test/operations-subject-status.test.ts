// The subject's status (src/operations/subject-status.ts, docs/operations.md): the one mover of the
// record an operation drives, seen through a real kind's hooks (music) on the real database. A move
// happens only from the states it may leave, so a duplicate start, a late retake or a second
// failure changes nothing and announces nothing.
import { describe, expect, it } from "vitest";
import { newId } from "../src/ids.js";
import { musicOperation } from "../src/music/music-operation.js";
import { OperationFailure, type OperationRow } from "../src/operations/kind.js";
import { failureMessage } from "../src/operations/subject-status.js";
import { createFixture, useService } from "./support/service.js";

const service = useService();
const prisma = () => service.service.database.prisma;

/** The operation as the hooks read it: only its subject matters to them. */
const operationOn = (subjectId: string, workspaceId: string) => ({ subject_id: subjectId, workspace_id: workspaceId }) as OperationRow;
const statusOf = async (generationId: string) => (await prisma().musicGeneration.findUniqueOrThrow({ where: { generation_id: generationId } })).status;
const failedEvents = (workspaceId: string) => prisma().outboxEvent.count({ where: { workspace_id: workspaceId, type: "music.failed" } });

describe("subjectStatus through the music kind's hooks", () => {
  it("starts, retakes and fails a song only from the states each move leaves; its neighbour is untouched", async () => {
    const { workspaceId } = await createFixture(service);
    const [song, neighbour] = [newId("music_generation"), newId("music_generation")];
    await prisma().musicGeneration.createMany({ data: [song, neighbour].map((generation_id) => ({ generation_id, workspace_id: workspaceId, title: "Theme" })) });
    const operation = operationOn(song, workspaceId);
    const hook = (move: (tx: Parameters<NonNullable<typeof musicOperation.onStart>>[0]) => Promise<void>) => prisma().$transaction(move);

    await hook((tx) => musicOperation.onStart!(tx, operation));
    expect(await statusOf(song)).toBe("running");
    // A duplicate claim finds it running: nothing moves.
    await hook((tx) => musicOperation.onStart!(tx, operation));
    expect(await statusOf(song)).toBe("running");

    await hook((tx) => musicOperation.onRetake!(tx, operation));
    expect(await statusOf(song)).toBe("pending");
    // A late retake of a song already waiting leaves it waiting.
    await hook((tx) => musicOperation.onRetake!(tx, operation));
    expect(await statusOf(song)).toBe("pending");

    const failure = new OperationFailure("upstream_error", "x".repeat(3000));
    const settlement = { creditsSpent: 0, creditsRefunded: 10 };
    await hook((tx) => musicOperation.onFail(tx, operation, failure, settlement, undefined as never));
    const failed = await prisma().musicGeneration.findUniqueOrThrow({ where: { generation_id: song } });
    expect(failed.status).toBe("failed");
    expect(failed.error_message).toBe(failureMessage(failure));
    expect(failed.error_message).toHaveLength(2000);
    expect(failed.error_message!.startsWith("upstream_error: xxx")).toBe(true);
    expect(await failedEvents(workspaceId)).toBe(1);

    // A failed song is not failed again, started again or retaken: one music.failed in all.
    await hook((tx) => musicOperation.onFail(tx, operation, failure, settlement, undefined as never));
    await hook((tx) => musicOperation.onStart!(tx, operation));
    await hook((tx) => musicOperation.onRetake!(tx, operation));
    expect(await statusOf(song)).toBe("failed");
    expect(await failedEvents(workspaceId)).toBe(1);

    expect(await statusOf(neighbour)).toBe("pending");
  });
});
