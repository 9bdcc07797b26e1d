package io.ringd;

/** {@link ConcurrentAdminChecks} on the shared real server, with the memory store. */
class ConcurrentAdminMemoryStoreApiTest extends ConcurrentAdminChecks {
}
