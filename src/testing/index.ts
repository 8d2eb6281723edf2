/**
 * `flowblocks/testing`: test a workflow built on the tools offline. `mockServices()` is an undici
 * dispatcher answering every tool's endpoint with fixtures from the vendors' documents;
 * `recordServices()` records real answers (the sandbox's, or an account's) into a fixture file
 * that `mockServices({ fixtures })` replays. Nothing here is loaded by the tools themselves.
 */
export { mockServices, ServiceMock, type MockCall, type MockServicesOptions, type MockStep, type UnmatchedRequest } from './mock-services.js';
export { FAILURE_NAMES, parseFixtureFile, type FailureName, type FixtureAnswer, type FixtureFile, type ToolFixtures } from './fixture-file.js';
export { FAULT_NAMES, type FaultName, type MockFailure } from './faults.js';
export { builtinFixtureFiles } from './catalog.js';
export { recordServices, loadFixtureFile, ServiceRecorder, type RecordServicesOptions } from './record-services.js';
