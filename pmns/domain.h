/*
 * The darwin domain, the same number as upstream PCP's darwin agent.
 */
#define DARWIN 78
