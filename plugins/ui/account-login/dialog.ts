/**
 * A sign-in driven through the mode's dialogs: the method is a select, the sign-in URL or device code
 * is a notice, and a pasted code is an input. The browser's redirect to the loopback server usually
 * finishes first; the paste box is then closed by the flow's signal.
 */
import type { LoginInteraction, LoginPrompt, UserInterface } from "pi-host";

/** The LoginInteraction over `ui`; `signal` cancels the sign-in. */
export function dialogInteraction(ui: UserInterface, signal: AbortSignal): LoginInteraction {
  return {
    signal,
    async prompt(prompt: LoginPrompt): Promise<string> {
      if (prompt.type === "select") {
        const labels = prompt.options.map((option) => option.label);
        const picked = await ui.select(prompt.message, labels, { signal });
        const option = prompt.options.find((candidate) => candidate.label === picked);
        if (option === undefined) throw new Error("Login cancelled");
        return option.id;
      }
      const stop = prompt.signal ? AbortSignal.any([signal, prompt.signal]) : signal;
      const answer = await ui.input(prompt.message, prompt.placeholder, { signal: stop });
      if (answer === undefined) {
        // Closed by the flow (the browser finished first) or by the user: either way no answer.
        throw new Error("Login cancelled");
      }
      return answer;
    },
    notify(event) {
      if (event.type === "auth_url") {
        ui.notify(`Open this URL to sign in:\n  ${event.url}${event.instructions ? `\n${event.instructions}` : ""}`);
      } else if (event.type === "device_code") {
        ui.notify(`Open ${event.verificationUri} and enter code: ${event.userCode}\nWaiting for authentication...`);
      } else ui.notify(event.message);
    },
  };
}
