export { createFileLogger, silentLogger, teeLogger, isLogLevel, type FileLoggerOptions } from "./logger.js";
