import { recordAuditEvent } from "../audit/record-audit-event";
import { consumerScope, inTransaction, type Ctx } from "../context";
import { NotFoundError } from "../errors";

/**
 * One attempt's logged response body erased (the Svix API's messageAttempt.expungeContent): a
 * receiver may have answered with what it should not have. Its status, error and timing stay; the
 * message and its payload are untouched. Audited; erasing one already empty changes nothing.
 */
export async function expungeAttemptResponse({ ctx, messageId, attemptId }: { ctx: Ctx; messageId: string; attemptId: string }): Promise<void> {
  const scope = consumerScope(ctx);
  await inTransaction(ctx, async (tx) => {
    const { sql } = tx;
    const [attempt] = await sql<{ id: string; had: boolean }[]>`
      update attempts a set response_body = null
      from (select id, response_body is not null as had from attempts
            where id = ${attemptId} and message_id = ${messageId} ${scope ? sql`and consumer_id = ${scope}` : sql``}
            for update) old
      where a.id = old.id and a.message_id = ${messageId}
      returning a.id, old.had`;
    if (!attempt) throw new NotFoundError("attempt", attemptId);
    if (attempt.had) await recordAuditEvent(tx, { action: "attempt.response_expunged", targetType: "attempt", targetId: attempt.id, data: { message_id: messageId } });
  });
}
