import pg from 'pg';

/** Statements longer than this (bulk inserts with thousands of parameters) are never kept. */
const MAX_KEPT_TEXT = 8192;

/**
 * A node-postgres client that keeps the application's statements prepared on its connection: the first time a
 * parameterised statement is sent, it is given a name, so PostgreSQL parses and analyses it once per connection and,
 * after a few runs, reuses its plan (plan_cache_mode auto: a generic plan only when it costs no more than the custom
 * ones). On the hot paths that is a quarter of the database's work for a paid checkout. At most `limit` statements are
 * kept per connection (beyond it, statements are sent unnamed, as before); statements without parameters (migrations,
 * BEGIN, COMMIT) and very long ones are never kept. 0 keeps none (for a pooler that cannot carry prepared statements).
 */
export function statementKeepingClient(limit: number): typeof pg.Client {
  if (limit <= 0) return pg.Client;
  return class StatementKeepingClient extends pg.Client {
    readonly #names = new Map<string, string>();

    // biome-ignore lint/suspicious/noExplicitAny: node-postgres's query() has a dozen overloads; this passes them through.
    override query(config: any, values?: any, callback?: any): any {
      if (
        typeof config === 'object' &&
        config !== null &&
        config.name === undefined &&
        typeof config.text === 'string' &&
        typeof config.submit !== 'function' &&
        config.text.length <= MAX_KEPT_TEXT &&
        (Array.isArray(values) ? values.length > 0 : Array.isArray(config.values) && config.values.length > 0)
      ) {
        let name = this.#names.get(config.text);
        if (name === undefined && this.#names.size < limit) {
          name = `kept_${this.#names.size}`;
          this.#names.set(config.text, name);
        }
        if (name !== undefined) return super.query({ ...config, name }, values, callback);
      }
      return super.query(config, values, callback);
    }
  };
}
