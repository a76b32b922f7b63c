// The README's two set-up commands exist as tasks, and CI runs exactly the test one.
import assert from "node:assert/strict";

const TEST_COMMAND = "npx -y deno@2 task test";
const DEMO_COMMAND = "npx -y deno@2 task demo";

Deno.test("the README starts with the demo and test commands", async () => {
  const readme = await Deno.readTextFile("README.md");
  const firstBlock = readme.slice(
    readme.indexOf("```sh"),
    readme.indexOf("```", readme.indexOf("```sh") + 5),
  );
  assert.ok(firstBlock.includes(DEMO_COMMAND), "demo command in the first code block");
  assert.ok(firstBlock.includes(TEST_COMMAND), "test command in the first code block");
});

Deno.test("the demo task runs the Deno example and the test task runs the test script", async () => {
  const { tasks } = JSON.parse(await Deno.readTextFile("deno.json"));
  assert.match(tasks.demo, /\bexamples\/deno\/main\.ts\b/);
  assert.match(tasks.test, /\bscripts\/test\.ts\b/);
});

Deno.test(".ci/run runs exactly the README's test command", async () => {
  const script = await Deno.readTextFile(".ci/run");
  const commands = script.split("\n").map((line) => line.trim()).filter((line) =>
    line !== "" && !line.startsWith("#") && !line.startsWith("set ") && !line.startsWith("cd ") &&
    !line.startsWith("export ")
  );
  assert.deepEqual(commands.filter((line) => !line.startsWith("#!")), [TEST_COMMAND]);
  assert.match(script, /DENO_NO_UPDATE_CHECK=1/);
});
