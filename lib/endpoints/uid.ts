import { isUniqueViolation } from "../db/errors";
import { ConflictError } from "../errors";

/** Runs a write that sets an endpoint's uid: another endpoint of the consumer holding it is 409 `uid_taken`. */
export async function uidTaken<T>(uid: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uid && isUniqueViolation(error, "endpoints_consumer_uid_key")) {
      throw new ConflictError("uid_taken", `Another endpoint of this consumer has the uid "${uid}".`);
    }
    throw error;
  }
}
