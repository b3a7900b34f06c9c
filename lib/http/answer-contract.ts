import { AppError, zodFieldErrors, type FieldError } from "../errors";
import { logger } from "../logger";
import { documentedAnswer } from "../openapi/answers";
import type { Operation } from "../openapi/operation";

/**
 * A route's 2xx answers checked against the schemas its operation documents, on the answer itself:
 * what the OpenAPI document promises is what the code answers. withApi (./api-route.ts) runs it in
 * tests and development, never in production.
 */
export class ResponseContractViolation extends AppError {
  constructor(operationId: string) {
    super(
      500,
      "response_contract_violated",
      "Response contract violated",
      `The answer of ${operationId} does not match the schema its operation documents; the server's log lists the differences under this request's id.`,
    );
  }
}

function violated(doc: Pick<Operation, "operationId">, status: number, requestId: string, differences: FieldError[]): never {
  // The differences name the answer's fields: the log's to show, not an error body's.
  logger.error("response contract violated", { req_id: requestId, operation: doc.operationId, status, differences });
  throw new ResponseContractViolation(doc.operationId);
}

/**
 * Parses a 2xx JSON answer as the client will read it (after JSON.stringify: dates as strings,
 * undefined gone) with its documented schema, and throws ResponseContractViolation on any
 * difference, a 2xx status the operation does not document included. Errors, CSV and bodiless
 * answers pass.
 */
export async function checkAnswer(doc: Pick<Operation, "operationId" | "success" | "also">, response: Response, requestId: string): Promise<void> {
  if (!response.ok) return;
  const schema = documentedAnswer(doc, response.status);
  if (schema === undefined) violated(doc, response.status, requestId, [{ path: "(status)", message: "a status the operation does not document" }]);
  if (!schema || !response.headers.get("content-type")?.startsWith("application/json")) return;
  const result = schema.safeParse(JSON.parse(await response.clone().text()));
  if (!result.success) violated(doc, response.status, requestId, zodFieldErrors(result.error));
}
