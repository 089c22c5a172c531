//! The equivalence table, as data (see the module above for the template syntax).

use super::Language;

/// The equivalence table: pairs of (spelling, canonical spelling) per language, tried in
/// order and repeatedly until none applies. This is data: add a row to teach the
/// analyser that two checks say the same.
pub const EQUIVALENCES: &[(Language, &str, &str)] = &[
    // Python: unittest spellings become assert statements.
    (
        Language::Python,
        "self.assertEquals(..)",
        "self.assertEqual(..)",
    ),
    (
        Language::Python,
        "self.assertEqual(A, B, ..)",
        "assert A == B",
    ),
    (
        Language::Python,
        "self.assertNotEqual(A, B, ..)",
        "assert A != B",
    ),
    // `with pytest.raises(E) as e:`: the context manager is the check.
    (
        Language::Python,
        "pytest.raises(A)as B:",
        "pytest.raises(A)",
    ),
    (Language::Python, "pytest.raises(A):", "pytest.raises(A)"),
    (Language::Python, "pytest.warns(A)as B:", "pytest.warns(A)"),
    (Language::Python, "pytest.warns(A):", "pytest.warns(A)"),
    (
        Language::Python,
        "self.assertRaises(A)as B:",
        "self.assertRaises(A)",
    ),
    (
        Language::Python,
        "self.assertRaises(A):",
        "self.assertRaises(A)",
    ),
    (
        Language::Python,
        "self.assertRaisesRegex(A)as B:",
        "self.assertRaisesRegex(A)",
    ),
    (
        Language::Python,
        "self.assertRaisesRegex(A):",
        "self.assertRaisesRegex(A)",
    ),
    (Language::Python, "self.assertTrue(A, ..)", "assert A"),
    (Language::Python, "self.assertFalse(A, ..)", "assert not A"),
    (
        Language::Python,
        "self.assertIsNone(A, ..)",
        "assert A is None",
    ),
    (
        Language::Python,
        "self.assertIsNotNone(A, ..)",
        "assert A is not None",
    ),
    (Language::Python, "self.assertIs(A, B, ..)", "assert A is B"),
    (Language::Python, "self.assertIn(A, B, ..)", "assert A in B"),
    (
        Language::Python,
        "self.assertNotIn(A, B, ..)",
        "assert A not in B",
    ),
    (
        Language::Python,
        "self.assertGreater(A, B, ..)",
        "assert A > B",
    ),
    (
        Language::Python,
        "self.assertGreaterEqual(A, B, ..)",
        "assert A >= B",
    ),
    (
        Language::Python,
        "self.assertLess(A, B, ..)",
        "assert A < B",
    ),
    (
        Language::Python,
        "self.assertLessEqual(A, B, ..)",
        "assert A <= B",
    ),
    (
        Language::Python,
        "self.assertIsInstance(A, B, ..)",
        "assert isinstance(A, B)",
    ),
    // Python: a reformatter's parentheses, a message, and comparisons with singletons.
    (Language::Python, "assert (A)", "assert A"),
    (Language::Python, "assert A, B", "assert A"),
    (Language::Python, "assert (A), B", "assert A"),
    (Language::Python, "assert A == None", "assert A is None"),
    (Language::Python, "assert None == A", "assert A is None"),
    (Language::Python, "assert A != None", "assert A is not None"),
    (Language::Python, "assert A == True", "assert A"),
    (Language::Python, "assert A is True", "assert A"),
    (Language::Python, "assert A == False", "assert not A"),
    (Language::Python, "assert A is False", "assert not A"),
    (Language::Python, "assert A == []", "assert not A"),
    (Language::Python, "assert A == {}", "assert not A"),
    (Language::Python, "assert A == ()", "assert not A"),
    (Language::Python, "assert A == \"\"", "assert not A"),
    (Language::Python, "assert A == ''", "assert not A"),
    (Language::Python, "assert len(A) == 0", "assert not A"),
    (Language::Python, "assert not len(A)", "assert not A"),
    (Language::Python, "assert not (A)", "assert not A"),
    (Language::Python, "assert A is not None and B", "assert B"),
    // Rust: boolean and option comparisons, messages.
    (Language::Rust, "assert_eq!(A, B, ..)", "assert_eq!(A, B)"),
    (Language::Rust, "assert_ne!(A, B, ..)", "assert_ne!(A, B)"),
    (Language::Rust, "assert!(A, ..)", "assert!(A)"),
    (Language::Rust, "debug_assert_eq!(..)", "assert_eq!(..)"),
    (Language::Rust, "debug_assert!(..)", "assert!(..)"),
    (Language::Rust, "assert!(A == B)", "assert_eq!(A, B)"),
    (Language::Rust, "assert!(A != B)", "assert_ne!(A, B)"),
    (Language::Rust, "assert!((A))", "assert!(A)"),
    // An option compared unwrapped, or wrapped: only an `Option` compares with `Some(…)`.
    (
        Language::Rust,
        "assert_eq!(A.unwrap(), B)",
        "assert_eq!(A, Some(B))",
    ),
    (
        Language::Rust,
        "assert_eq!(A, B.unwrap())",
        "assert_eq!(Some(A), B)",
    ),
    (Language::Rust, "assert_eq!(A, true)", "assert!(A)"),
    (Language::Rust, "assert_eq!(true, A)", "assert!(A)"),
    (Language::Rust, "assert_eq!(A, false)", "assert!(!A)"),
    (Language::Rust, "assert_eq!(false, A)", "assert!(!A)"),
    (
        Language::Rust,
        "assert_eq!(A, None)",
        "assert!(A.is_none())",
    ),
    (
        Language::Rust,
        "assert_eq!(A.len(), 0)",
        "assert!(A.is_empty())",
    ),
    (
        Language::Rust,
        "assert!(A.len() == 0)",
        "assert!(A.is_empty())",
    ),
    (
        Language::Rust,
        "assert!(matches!(A, B))",
        "assert_matches!(A, B)",
    ),
    // JavaScript: length, null/undefined, messages.
    // (TypeScript's type argument to a matcher checks nothing at run time.)
    (
        Language::JavaScript,
        "expect(A).toStrictEqual<B>(C)",
        "expect(A).toStrictEqual(C)",
    ),
    (
        Language::JavaScript,
        "expect(A).toEqual<B>(C)",
        "expect(A).toEqual(C)",
    ),
    (
        Language::JavaScript,
        "expect(A).toMatchObject<B>(C)",
        "expect(A).toMatchObject(C)",
    ),
    (
        Language::JavaScript,
        "expect(A.length).toBe(B)",
        "expect(A).toHaveLength(B)",
    ),
    (
        Language::JavaScript,
        "expect(A.length).toEqual(B)",
        "expect(A).toHaveLength(B)",
    ),
    (
        Language::JavaScript,
        "expect(A.length).toStrictEqual(B)",
        "expect(A).toHaveLength(B)",
    ),
    (
        Language::JavaScript,
        "expect(A).toBe(null)",
        "expect(A).toBeNull()",
    ),
    (
        Language::JavaScript,
        "expect(A).toEqual(null)",
        "expect(A).toBeNull()",
    ),
    (
        Language::JavaScript,
        "expect(A).toBe(undefined)",
        "expect(A).toBeUndefined()",
    ),
    (
        Language::JavaScript,
        "expect(A).toEqual(undefined)",
        "expect(A).toBeUndefined()",
    ),
    (Language::JavaScript, "expect(A, B).C", "expect(A).C"),
    // chai's length, assert and expect styles.
    (
        Language::JavaScript,
        "expect(A).to.have.lengthOf(B)",
        "expect(A).toHaveLength(B)",
    ),
    (
        Language::JavaScript,
        "expect(A).to.have.length(B)",
        "expect(A).toHaveLength(B)",
    ),
    (
        Language::JavaScript,
        "assert.lengthOf(A, B, ..)",
        "expect(A).toHaveLength(B)",
    ),
    (
        Language::JavaScript,
        "assert.lengthOf(A, B)",
        "expect(A).toHaveLength(B)",
    ),
    (
        Language::JavaScript,
        "expect(A).to.equal(B)",
        "expect(A).toBe(B)",
    ),
    (
        Language::JavaScript,
        "expect(A).to.eql(B)",
        "expect(A).toEqual(B)",
    ),
    (
        Language::JavaScript,
        "expect(A).to.deep.equal(B)",
        "expect(A).toEqual(B)",
    ),
    (
        Language::JavaScript,
        "assert.equal(A, B, ..)",
        "assert.equal(A, B)",
    ),
    (
        Language::JavaScript,
        "assert.strictEqual(A, B, ..)",
        "assert.strictEqual(A, B)",
    ),
    (
        Language::JavaScript,
        "assert.deepEqual(A, B, ..)",
        "assert.deepEqual(A, B)",
    ),
    (
        Language::JavaScript,
        "assert.deepStrictEqual(A, B, ..)",
        "assert.deepStrictEqual(A, B)",
    ),
    // tap and tape: `t.equal` is `===`, `t.same` deep and loose, `t.strictSame` deep
    // and strict (a migration to node:test spells them `assert.…`).
    (
        Language::JavaScript,
        "t.equal(A, B, ..)",
        "assert.strictEqual(A, B)",
    ),
    (
        Language::JavaScript,
        "t.equal(A, B)",
        "assert.strictEqual(A, B)",
    ),
    (
        Language::JavaScript,
        "t.same(A, B, ..)",
        "assert.deepEqual(A, B)",
    ),
    (
        Language::JavaScript,
        "t.same(A, B)",
        "assert.deepEqual(A, B)",
    ),
    (
        Language::JavaScript,
        "t.strictSame(A, B, ..)",
        "assert.deepStrictEqual(A, B)",
    ),
    (
        Language::JavaScript,
        "t.strictSame(A, B)",
        "assert.deepStrictEqual(A, B)",
    ),
    (Language::JavaScript, "t.ok(A, ..)", "assert.ok(A)"),
    (Language::JavaScript, "t.ok(A)", "assert.ok(A)"),
    (
        Language::JavaScript,
        "t.throws(A, B, ..)",
        "assert.throws(A, B)",
    ),
    (
        Language::JavaScript,
        "t.throws(A, B)",
        "assert.throws(A, B)",
    ),
    (Language::JavaScript, "assert.ok(A, ..)", "assert.ok(A)"),
    (Language::JavaScript, "assert(A, ..)", "assert.ok(A)"),
    (
        Language::JavaScript,
        "assert.strictEqual(A, true)",
        "assert.ok(A)",
    ),
    // (`assert.equal(x, true)` → `assert.strictEqual(x, true)` is stricter, not looser.)
    (
        Language::JavaScript,
        "assert.equal(A, true)",
        "assert.ok(A)",
    ),
    // Go: testify's require is assert that stops; booleans, nil and length.
    (Language::Go, "require.A", "assert.A"),
    // testify suites: `s.Require().X(…)`, `s.Assert().X(…)` and `s.X(…)` are
    // `assert.X(s, …)`; `s.T()` as the first argument is the suite too.
    (Language::Go, "A.Require().B(..)", "assert.B(A, ..)"),
    (Language::Go, "A.Assert().B(..)", "assert.B(A, ..)"),
    (Language::Go, "s.A(..)", "assert.A(s, ..)"),
    (Language::Go, "suite.A(..)", "assert.A(suite, ..)"),
    (Language::Go, "ts.A(..)", "assert.A(ts, ..)"),
    // `r := require.New(t)` (`assert.New(t)`, a constructor, is not a check).
    (Language::Go, "r.A(..)", "assert.A(r, ..)"),
    (Language::Go, "assert.A(B.T(), ..)", "assert.A(B, ..)"),
    (
        Language::Go,
        "assert.Equal(T, A, B, ..)",
        "assert.Equal(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Equal(T, true, A)",
        "assert.True(T, A)",
    ),
    (
        Language::Go,
        "assert.Equal(T, A, true)",
        "assert.True(T, A)",
    ),
    (
        Language::Go,
        "assert.Equal(T, false, A)",
        "assert.False(T, A)",
    ),
    (
        Language::Go,
        "assert.Equal(T, A, false)",
        "assert.False(T, A)",
    ),
    (Language::Go, "assert.Equal(T, nil, A)", "assert.Nil(T, A)"),
    (
        Language::Go,
        "assert.Equal(T, A, len(B))",
        "assert.Len(T, B, A)",
    ),
    (Language::Go, "assert.Len(T, A, 0)", "assert.Empty(T, A)"),
    (Language::Go, "assert.True(T, A, ..)", "assert.True(T, A)"),
    (Language::Go, "assert.False(T, A, ..)", "assert.False(T, A)"),
    // gomega: `Ω(…).Should`, `Expect(…).Should` and `To` are one spelling, as are the
    // matchers for a boolean, a length, and an error that did not occur.
    (Language::Go, "Ω(A).Should(B)", "Expect(A).To(B)"),
    (Language::Go, "Ω(A).ShouldNot(B)", "Expect(A).NotTo(B)"),
    (Language::Go, "Expect(A).Should(B)", "Expect(A).To(B)"),
    (Language::Go, "Expect(A).ShouldNot(B)", "Expect(A).NotTo(B)"),
    (Language::Go, "Expect(A).ToNot(B)", "Expect(A).NotTo(B)"),
    (
        Language::Go,
        "Expect(A).To(Equal(true))",
        "Expect(A).To(BeTrue())",
    ),
    (
        Language::Go,
        "Expect(A).To(Equal(false))",
        "Expect(A).To(BeFalse())",
    ),
    (
        Language::Go,
        "Expect(len(A)).To(Equal(B))",
        "Expect(A).To(HaveLen(B))",
    ),
    (
        Language::Go,
        "Expect(A).To(HaveLen(0))",
        "Expect(A).To(BeEmpty())",
    ),
    (
        Language::Go,
        "Expect(A).NotTo(HaveOccurred())",
        "Expect(A).To(BeNil())",
    ),
    (
        Language::Go,
        "Expect(A).To(Succeed())",
        "Expect(A).To(BeNil())",
    ),
    // `errors.Is` checked as a boolean is `ErrorIs`.
    (
        Language::Go,
        "assert.True(T, errors.Is(A, B))",
        "assert.ErrorIs(T, A, B)",
    ),
    (
        Language::Go,
        "assert.True(T, errors.As(A, B))",
        "assert.ErrorAs(T, A, B)",
    ),
    (Language::Go, "assert.Nil(T, A, ..)", "assert.Nil(T, A)"),
    (
        Language::Go,
        "assert.NotNil(T, A, ..)",
        "assert.NotNil(T, A)",
    ),
    (
        Language::Go,
        "assert.NoError(T, A, ..)",
        "assert.NoError(T, A)",
    ),
    (Language::Go, "assert.Error(T, A, ..)", "assert.Error(T, A)"),
    (
        Language::Go,
        "assert.Len(T, A, B, ..)",
        "assert.Len(T, A, B)",
    ),
    (Language::Go, "t.Error(A != nil)", "assert.NoError(t, A)"),
    // A comparison asserted true is the plain `if a != b { t.Error… }` it replaces.
    (Language::Go, "assert.True(T, A == B)", "t.Error(A != B)"),
    (Language::Go, "assert.False(T, A != B)", "t.Error(A != B)"),
    // A failure message says nothing about what is checked (`assert.X(t, …, "msg", args…)`).
    (Language::Go, "assert.Empty(T, A, ..)", "assert.Empty(T, A)"),
    (
        Language::Go,
        "assert.NotEmpty(T, A, ..)",
        "assert.NotEmpty(T, A)",
    ),
    (Language::Go, "assert.Zero(T, A, ..)", "assert.Zero(T, A)"),
    (
        Language::Go,
        "assert.NotZero(T, A, ..)",
        "assert.NotZero(T, A)",
    ),
    (
        Language::Go,
        "assert.Positive(T, A, ..)",
        "assert.Positive(T, A)",
    ),
    (
        Language::Go,
        "assert.Negative(T, A, ..)",
        "assert.Negative(T, A)",
    ),
    (
        Language::Go,
        "assert.Panics(T, A, ..)",
        "assert.Panics(T, A)",
    ),
    (
        Language::Go,
        "assert.NotPanics(T, A, ..)",
        "assert.NotPanics(T, A)",
    ),
    (
        Language::Go,
        "assert.FileExists(T, A, ..)",
        "assert.FileExists(T, A)",
    ),
    (
        Language::Go,
        "assert.DirExists(T, A, ..)",
        "assert.DirExists(T, A)",
    ),
    (
        Language::Go,
        "assert.EqualValues(T, A, B, ..)",
        "assert.EqualValues(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Exactly(T, A, B, ..)",
        "assert.Exactly(T, A, B)",
    ),
    (
        Language::Go,
        "assert.NotEqual(T, A, B, ..)",
        "assert.NotEqual(T, A, B)",
    ),
    (
        Language::Go,
        "assert.ErrorIs(T, A, B, ..)",
        "assert.ErrorIs(T, A, B)",
    ),
    (
        Language::Go,
        "assert.ErrorAs(T, A, B, ..)",
        "assert.ErrorAs(T, A, B)",
    ),
    (
        Language::Go,
        "assert.ErrorContains(T, A, B, ..)",
        "assert.ErrorContains(T, A, B)",
    ),
    (
        Language::Go,
        "assert.EqualError(T, A, B, ..)",
        "assert.EqualError(T, A, B)",
    ),
    // An error's message checked through `err.Error()` is the error checked by its
    // message (a nil error fails both).
    (
        Language::Go,
        "assert.Contains(T, A.Error(), B)",
        "assert.ErrorContains(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Equal(T, A.Error(), B)",
        "assert.EqualError(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Equal(T, B, A.Error())",
        "assert.EqualError(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Contains(T, A, B, ..)",
        "assert.Contains(T, A, B)",
    ),
    (
        Language::Go,
        "assert.NotContains(T, A, B, ..)",
        "assert.NotContains(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Greater(T, A, B, ..)",
        "assert.Greater(T, A, B)",
    ),
    (
        Language::Go,
        "assert.GreaterOrEqual(T, A, B, ..)",
        "assert.GreaterOrEqual(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Less(T, A, B, ..)",
        "assert.Less(T, A, B)",
    ),
    (
        Language::Go,
        "assert.LessOrEqual(T, A, B, ..)",
        "assert.LessOrEqual(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Same(T, A, B, ..)",
        "assert.Same(T, A, B)",
    ),
    (
        Language::Go,
        "assert.NotSame(T, A, B, ..)",
        "assert.NotSame(T, A, B)",
    ),
    (
        Language::Go,
        "assert.ElementsMatch(T, A, B, ..)",
        "assert.ElementsMatch(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Subset(T, A, B, ..)",
        "assert.Subset(T, A, B)",
    ),
    (
        Language::Go,
        "assert.JSONEq(T, A, B, ..)",
        "assert.JSONEq(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Regexp(T, A, B, ..)",
        "assert.Regexp(T, A, B)",
    ),
    (
        Language::Go,
        "assert.IsType(T, A, B, ..)",
        "assert.IsType(T, A, B)",
    ),
    (
        Language::Go,
        "assert.Implements(T, A, B, ..)",
        "assert.Implements(T, A, B)",
    ),
    (Language::Go, "assert.Equal(T, 0, A)", "assert.Zero(T, A)"),
    (Language::Go, "assert.Equal(T, A, 0)", "assert.Zero(T, A)"),
    // `if x != true { t.Error(…) }` is `assert.True(t, x)`: Go compares only a bool
    // with `true`, so the comparison pins nothing more than the truth.
    (Language::Go, "t.Error(A != true)", "assert.True(t, A)"),
    (Language::Go, "t.Error(true != A)", "assert.True(t, A)"),
    (Language::Go, "t.Error(A == false)", "assert.True(t, A)"),
    (Language::Go, "t.Error(false == A)", "assert.True(t, A)"),
    (Language::Go, "t.Error(A != false)", "assert.False(t, A)"),
    (Language::Go, "t.Error(false != A)", "assert.False(t, A)"),
    (Language::Go, "t.Error(A == true)", "assert.False(t, A)"),
    (Language::Go, "t.Error(true == A)", "assert.False(t, A)"),
    // Java / Kotlin: qualified names, booleans, null, sizes.
    // A failure is a failure, whatever its message.
    (Language::Java, "throw new AssertionError(..)", "fail()"),
    (Language::Java, "fail(A)", "fail()"),
    // MSTest's `[ExpectedException(typeof(E))]`: the test fails unless `E` is thrown.
    // (With `AllowDerivedTypes = true` any subtype passes: xUnit's `ThrowsAny<A>`.)
    (
        Language::CSharp,
        "[ExpectedException(typeof(A), AllowDerivedTypes = true, ..)]",
        "Assert.ThrowsAny<A>()",
    ),
    (
        Language::CSharp,
        "[ExpectedException(typeof(A), ..)]",
        "Assert.ThrowsException<A>()",
    ),
    // JUnit 4's `@Test(expected = E.class)`: the test fails unless `E` is thrown.
    (Language::Java, "@Test(expected = A, ..)", "assertThrows(A)"),
    (
        Language::Java,
        "@Test(P = Q, expected = A, ..)",
        "assertThrows(A)",
    ),
    (Language::Java, "Assertions.A", "A"),
    (Language::Java, "Assert.A", "A"),
    (Language::Java, "org.junit.Assert.A", "A"),
    (Language::Java, "org.junit.jupiter.api.Assertions.A", "A"),
    (Language::Java, "org.testng.Assert.A", "A"),
    // TestNG's `expectThrows` is JUnit 5's `assertThrows`.
    (Language::Java, "expectThrows(..)", "assertThrows(..)"),
    // BDDMockito's `then(mock).should(…)` is Mockito's `verify(mock, …)`.
    (Language::Java, "BDDMockito.then(A)", "then(A)"),
    (Language::Java, "then(A).should().B", "verify(A).B"),
    (Language::Java, "then(A).should(B).C", "verify(A, B).C"),
    (
        Language::Java,
        "then(A).shouldHaveNoMoreInteractions()",
        "verifyNoMoreInteractions(A)",
    ),
    (
        Language::Java,
        "then(A).shouldHaveNoInteractions()",
        "verifyNoInteractions(A)",
    ),
    (Language::Java, "assertEquals(true, A)", "assertTrue(A)"),
    (Language::Java, "assertEquals(false, A)", "assertFalse(A)"),
    (Language::Java, "assertEquals(null, A)", "assertNull(A)"),
    (
        Language::Java,
        "assertThat(A).isEqualTo(true)",
        "assertThat(A).isTrue()",
    ),
    (
        Language::Java,
        "assertThat(A).isEqualTo(Boolean.TRUE)",
        "assertThat(A).isTrue()",
    ),
    (
        Language::Java,
        "assertThat(A).isEqualTo(Boolean.FALSE)",
        "assertThat(A).isFalse()",
    ),
    (
        Language::Java,
        "assertThat(A).isEqualTo(false)",
        "assertThat(A).isFalse()",
    ),
    (
        Language::Java,
        "assertThat(A).isEqualTo(null)",
        "assertThat(A).isNull()",
    ),
    (
        Language::Java,
        "assertThat(A.size()).isEqualTo(B)",
        "assertThat(A).hasSize(B)",
    ),
    (
        Language::Java,
        "assertThat(A.substring(0, B.length())).isEqualTo(B)",
        "assertThat(A).startsWith(B)",
    ),
    (
        Language::Java,
        "assertThat(A.size()).isZero()",
        "assertThat(A).isEmpty()",
    ),
    (
        Language::Java,
        "assertThat(A).hasSize(0)",
        "assertThat(A).isEmpty()",
    ),
    (
        Language::Java,
        "assertThat(A, is(equalTo(B)))",
        "assertThat(A, equalTo(B))",
    ),
    (
        Language::Java,
        "assertThat(A, is(true))",
        "assertThat(A).isTrue()",
    ),
    (
        Language::Java,
        "assertThat(A, is(false))",
        "assertThat(A).isFalse()",
    ),
    // Hamcrest's matchers, AssertJ's and JUnit's spellings of one check.
    (
        Language::Java,
        "assertThat(A, equalTo(B))",
        "assertThat(A).isEqualTo(B)",
    ),
    (
        Language::Java,
        "assertThat(A, is(empty()))",
        "assertThat(A).isEmpty()",
    ),
    (
        Language::Java,
        "assertThat(A, empty())",
        "assertThat(A).isEmpty()",
    ),
    (
        Language::Java,
        "assertThat(A.isEmpty()).isTrue()",
        "assertThat(A).isEmpty()",
    ),
    (
        Language::Java,
        "assertThat(A, hasSize(B))",
        "assertThat(A).hasSize(B)",
    ),
    (
        Language::Java,
        "assertThat(A, is(nullValue()))",
        "assertThat(A).isNull()",
    ),
    (
        Language::Java,
        "assertThat(A, nullValue())",
        "assertThat(A).isNull()",
    ),
    (
        Language::Java,
        "assertEquals(A, B)",
        "assertThat(B).isEqualTo(A)",
    ),
    // `assertEquals` calls `expected.equals(actual)`: the same check spelled out.
    (
        Language::Java,
        "assertTrue(P.equals(Q))",
        "assertEquals(P, Q)",
    ),
    (
        Language::Java,
        "assertFalse(P.equals(Q))",
        "assertNotEquals(P, Q)",
    ),
    (Language::Java, "assertTrue(A)", "assertThat(A).isTrue()"),
    (Language::Java, "assertFalse(A)", "assertThat(A).isFalse()"),
    (Language::Java, "assertNull(A)", "assertThat(A).isNull()"),
    (
        Language::Java,
        "assertNotNull(A)",
        "assertThat(A).isNotNull()",
    ),
    // Ruby: RSpec and minitest spellings (matchers without parentheses).
    (Language::Ruby, "expect(A).to eq(B)", "expect(A).to eq B"),
    (Language::Ruby, "expect(A).to be(B)", "expect(A).to be B"),
    (Language::Ruby, "expect(A).to_not B", "expect(A).not_to B"),
    (
        Language::Ruby,
        "expect(A).to eq true",
        "expect(A).to be true",
    ),
    (Language::Ruby, "expect(A).to eq nil", "expect(A).to be_nil"),
    // The message of an expected error checked in raise_error's block is its second
    // argument written apart.
    (
        Language::Ruby,
        "expect{A}.to raise_error(B){|C|expect(C.message).to match(D)}",
        "expect{A}.to raise_error(B, D)",
    ),
    (
        Language::Ruby,
        "expect{A}.to raise_error(B){|C|expect(C.message).to eq(D)}",
        "expect{A}.to raise_error(B, D)",
    ),
    (
        Language::Ruby,
        "expect{A}.to raise_error(B){|C|expect(C.message).to eq D}",
        "expect{A}.to raise_error(B, D)",
    ),
    (Language::Ruby, "expect(A).to be nil", "expect(A).to be_nil"),
    (
        Language::Ruby,
        "expect(A.length).to eq B",
        "expect(A.size).to eq B",
    ),
    (
        Language::Ruby,
        "expect(A.count).to eq B",
        "expect(A.size).to eq B",
    ),
    (
        Language::Ruby,
        "expect(A.size).to eq 0",
        "expect(A).to be_empty",
    ),
    (
        Language::Ruby,
        "assert_equal A, B, ..",
        "assert_equal(A, B)",
    ),
    (
        Language::Ruby,
        "assert_equal(A, B, ..)",
        "assert_equal(A, B)",
    ),
    (Language::Ruby, "assert_equal(true, A)", "assert(A)"),
    // (The expected value last is a common slip; `true`/`false` there say the same.)
    (Language::Ruby, "assert_equal(A, true)", "assert(A)"),
    (
        Language::Ruby,
        "assert_in_delta A, B, C",
        "assert_in_delta(A, B, C)",
    ),
    (Language::Ruby, "assert_equal(false, A)", "refute(A)"),
    (Language::Ruby, "assert_equal(A, false)", "refute(A)"),
    (Language::Ruby, "assert(!A)", "refute(A)"),
    (Language::Ruby, "refute A, ..", "refute(A)"),
    (Language::Ruby, "refute(A, ..)", "refute(A)"),
    (Language::Ruby, "assert_equal(nil, A)", "assert_nil(A)"),
    (Language::Ruby, "assert_nil A", "assert_nil(A)"),
    (Language::Ruby, "assert A, ..", "assert(A)"),
    (Language::Ruby, "assert(A, ..)", "assert(A)"),
    (Language::Ruby, "A.must_equal B", "assert_equal(B, A)"),
    (Language::Ruby, "_(A).must_equal B", "assert_equal(B, A)"),
    // C#: xUnit, NUnit and MSTest spellings.
    (Language::CSharp, "ClassicAssert.A", "Assert.A"),
    (
        Language::CSharp,
        "typeof(A).ShouldBeThrownBy(B)",
        "Assert.Throws<A>(B)",
    ),
    // (Shouldly's tolerance, a number: `d.ShouldBe(1.16m, 0.01m)`.)
    (
        Language::CSharp,
        "A.ShouldBe(B, N)",
        "Assert.That(A, Is.EqualTo(B).Within(N))",
    ),
    (Language::CSharp, "A.ShouldBe(B)", "Assert.Equal(B, A)"),
    (Language::CSharp, "A.ShouldBeTrue()", "Assert.True(A)"),
    (Language::CSharp, "A.ShouldBeFalse()", "Assert.False(A)"),
    (Language::CSharp, "A.ShouldBeNull()", "Assert.Null(A)"),
    (Language::CSharp, "A.ShouldNotBeNull()", "Assert.NotNull(A)"),
    (
        Language::CSharp,
        "Assert.True(P.Equals(Q))",
        "Assert.Equal(P, Q)",
    ),
    (
        Language::CSharp,
        "Assert.False(P.Equals(Q))",
        "Assert.NotEqual(P, Q)",
    ),
    (Language::CSharp, "Assert.Equal(true, A)", "Assert.True(A)"),
    (
        Language::CSharp,
        "Assert.Equal(false, A)",
        "Assert.False(A)",
    ),
    (
        Language::CSharp,
        "Assert.AreEqual(true, A)",
        "Assert.True(A)",
    ),
    (
        Language::CSharp,
        "Assert.AreEqual(false, A)",
        "Assert.False(A)",
    ),
    (Language::CSharp, "Assert.IsTrue(A, ..)", "Assert.True(A)"),
    (Language::CSharp, "Assert.IsFalse(A, ..)", "Assert.False(A)"),
    // NUnit's and MSTest's `AreEqual(expected, actual, delta)`: a tolerance (`N`, a
    // number; a text there is the message).
    (
        Language::CSharp,
        "Assert.AreEqual(A, B, N, ..)",
        "Assert.That(B, Is.EqualTo(A).Within(N))",
    ),
    (
        Language::CSharp,
        "Assert.AreEqual(A, B, ..)",
        "Assert.Equal(A, B)",
    ),
    (Language::CSharp, "Assert.IsNull(A, ..)", "Assert.Null(A)"),
    (
        Language::CSharp,
        "Assert.IsNotNull(A, ..)",
        "Assert.NotNull(A)",
    ),
    (
        Language::CSharp,
        "Assert.That(A, Is.EqualTo(B))",
        "Assert.Equal(B, A)",
    ),
    // NUnit's size constraints: an exact size is an exact check of the count.
    (
        Language::CSharp,
        "Assert.That(A, Has.Count.EqualTo(B))",
        "Assert.Equal(B, A.Count)",
    ),
    (
        Language::CSharp,
        "Assert.That(A, Has.Length.EqualTo(B))",
        "Assert.Equal(B, A.Length)",
    ),
    (
        Language::CSharp,
        "Assert.That(A, Is.True)",
        "Assert.True(A)",
    ),
    (
        Language::CSharp,
        "Assert.That(A, Is.False)",
        "Assert.False(A)",
    ),
    (
        Language::CSharp,
        "Assert.That(A, Is.Null)",
        "Assert.Null(A)",
    ),
    (
        Language::CSharp,
        "Assert.That(A, Is.Not.Null)",
        "Assert.NotNull(A)",
    ),
    (Language::CSharp, "Assert.That(A)", "Assert.True(A)"),
    (
        Language::CSharp,
        "A.Should().Be(true)",
        "A.Should().BeTrue()",
    ),
    // FluentAssertions' spellings of xUnit's checks.
    (Language::CSharp, "A.Should().BeTrue()", "Assert.True(A)"),
    (Language::CSharp, "A.Should().BeFalse()", "Assert.False(A)"),
    (Language::CSharp, "A.Should().BeNull()", "Assert.Null(A)"),
    (
        Language::CSharp,
        "A.Should().NotBeNull()",
        "Assert.NotNull(A)",
    ),
    (Language::CSharp, "A.Should().BeEmpty()", "Assert.Empty(A)"),
    (
        Language::CSharp,
        "A.Should().NotBeEmpty()",
        "Assert.NotEmpty(A)",
    ),
    (
        Language::CSharp,
        "A.Should().ContainSingle()",
        "Assert.Single(A)",
    ),
    (
        Language::CSharp,
        "A.Should().HaveCount(B)",
        "Assert.Equal(B, A.Count())",
    ),
    (
        Language::CSharp,
        "A.Should().Equal(B)",
        "Assert.Equal(B, A)",
    ),
    (Language::CSharp, "A.Should().Be(B)", "Assert.Equal(B, A)"),
    (
        Language::CSharp,
        "A.Should().BeOfType<B>()",
        "Assert.IsType<B>(A)",
    ),
    (
        Language::CSharp,
        "A.ShouldBeOfType<B>()",
        "Assert.IsType<B>(A)",
    ),
    (
        Language::CSharp,
        "Assert.Equal(A, B.Count)",
        "Assert.Equal(A, B.Count())",
    ),
];
