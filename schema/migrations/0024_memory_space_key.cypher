// A memory's space as one full-text term (cypher.spaceKey, which computes the same for
// the memories written since): the english analyzer splits a space id at '-', lower-cases
// it and drops its stop words, so a query restricted to the id also matched other spaces'
// memories ("a-conv-41": "b-conv-41"), which filled its bounded fetch; an id of stop
// words ("to-be") restricted nothing. Each character of the id ([A-Za-z0-9_-]) becomes
// letters, digits and underscores, one word for the tokenizer: '-' "_0", '_' "__", an
// upper-case letter '_' and its lower case, any other itself; between 's' and '0'.
// This fills it for the memories written before, in batches. Idempotent: only memories
// without it are set.
MATCH (m:Memory) WHERE m.space_key IS NULL AND m.space IS NOT NULL
CALL (m) {
  SET m.space_key = reduce(k = 's', c IN split(m.space, '') |
    k + CASE WHEN c = '-' THEN '_0' WHEN c = '_' THEN '__' WHEN c <> toLower(c) THEN '_' + toLower(c) ELSE c END) + '0'
} IN TRANSACTIONS OF 10000 ROWS
