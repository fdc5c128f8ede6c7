// Unit tests of static/js/page_variants.js: the frame's address for each variant of a captured page (the raw
// response or its rendering, plain or styled), whatever the address held before, and the variant's name.
import assert from "node:assert/strict";
import { test } from "node:test";

import { variantAddress, variantName } from "../../static/js/page_variants.js";

test("each variant has its address, and going back to plain drops what was asked before", () => {
  assert.equal(variantAddress("/pages/7/raw", false, false), "/pages/7/raw");
  assert.equal(variantAddress("/pages/7/raw", true, false), "/pages/7/raw?rendering=rendered");
  assert.equal(variantAddress("/pages/7/raw", false, true), "/pages/7/raw?styled=1");
  assert.equal(variantAddress("/pages/7/raw", true, true), "/pages/7/raw?rendering=rendered&styled=1");
  assert.equal(variantAddress("/pages/7/raw?rendering=rendered&styled=1", false, false), "/pages/7/raw");
});

test("the variant shown is named for the annotator", () => {
  assert.equal(variantName(false, false), "Raw response, plain");
  assert.equal(variantName(true, true), "Rendering in Chromium, styled");
});
