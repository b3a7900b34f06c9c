import type postgres from "postgres";
import { getSql } from "../../lib/db/client";

/**
 * A transaction that does `work` and then stays open, its locks held and nothing committed, until
 * `commit()`: for what another transaction does meanwhile (a claim beside an outcome write).
 */
export async function holdTransaction<T>(work: (tx: postgres.TransactionSql) => Promise<T>): Promise<{ result: T; commit: () => Promise<void> }> {
  let opened!: (value: T) => void;
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  // The transaction starts once a connection is free, after `opened` below is set.
  const transaction = getSql().begin(async (tx) => {
    opened(await work(tx));
    await ended;
  });
  const result = new Promise<T>((resolve, reject) => {
    opened = resolve;
    transaction.catch(reject);
  });
  const value = await result;
  return {
    result: value,
    commit: async () => {
      end();
      await transaction;
    },
  };
}
