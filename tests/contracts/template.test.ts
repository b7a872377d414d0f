import { expect, it } from "vitest";
import { fillTemplate, splitArgs } from "../../contracts/resources.js";
it("splits and fills like pi, in one pass", () => {
  expect(splitArgs(`a "b c" d'e f'g ""`)).toEqual(["a", "b c", "de fg"]);
  expect(fillTemplate("1=$1 2=$2 all=$@ A=$ARGUMENTS from2=${@:2} two=${@:1:2}", `x "y z" w`)).toBe(
    "1=x 2=y z all=x y z w A=x y z w from2=y z w two=x y z",
  );
  expect(fillTemplate("$1 then $@", "$@")).toBe("$@ then $@");
});
