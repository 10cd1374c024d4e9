/** pg-boss keeps its tables in this schema, beside (never inside) the app's migrations. */
export const JOBS_SCHEMA = "pgboss";

/** The dead-letter queue of `name`: where a job lands after its last retry failed. */
export const deadLetterOf = (name: string) => `${name}.dead`;
