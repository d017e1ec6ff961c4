import { h } from "./util/helpers";
const cfg = "web/util/helpers.ts";
