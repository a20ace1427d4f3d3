// Types of the charting library the server serves at /console/vendor/uplot.esm.js (for console/tsconfig.json only).
import uPlot from 'uplot';
export default uPlot;
