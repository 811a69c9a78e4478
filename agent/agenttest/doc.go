// Package agenttest provides a scripted fake of the OpenAI chat completions API
// (FakeOpenAI, an httptest server), so that the LLM paths of REALM can be tested end to
// end without a key or a network. It is a non-test package so that the tests of any
// package can import it; production code must not. Router scripts a whole run, answering
// each request by the first Route whose schema name and text match it.
//
// It imports go-openai (for the wire types) and the standard library only.
package agenttest
