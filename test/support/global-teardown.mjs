export default async function globalTeardown() {
  await globalThis.__ISVC_DOCTOR_REDIS__?.stop();
}
