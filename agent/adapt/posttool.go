package adapt

// PostTool is the hook event of a tool use that has finished: the hook
// records the files a file-changing tool touched (evidence) and checks the
// working tree after any tool that can write, a shell included. Like
// PreTool it is wired per host (toolHooks), not one of Events().
const PostTool Event = "post-tool"
