export { lineKeyOf } from "./line-key";
export { lineName, placeInLines, type Line } from "./open-lines";
