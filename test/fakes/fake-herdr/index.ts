// A faithful-enough double of herdr's socket API (herdr cannot be installed on the test machines).
export { startFakeHerdr, writeStaleSocketFile, type FakeHerdr, type FakeHerdrOptions, type Fault } from './server.ts';
export { HerdrModel, type FakePane, type FakeProcess } from './model.ts';
