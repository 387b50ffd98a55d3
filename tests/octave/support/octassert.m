function octassert(cond, varargin)
%OCTASSERT  GNU Octave's assert, written in plain MATLAB.
%   octassert(COND) errors unless COND is nonempty and all true.
%   octassert(OBSERVED, EXPECTED) errors unless they are equal: same class,
%   size and values (NaN matches NaN), strings, cells and structs compared
%   recursively.
%   octassert(OBSERVED, EXPECTED, TOL) compares numbers with an absolute
%   tolerance (TOL > 0) or a relative one (TOL < 0) and skips the class test.
if nargin == 1 || (nargin > 1 && islogical(cond) && ischar(varargin{1}))
    if (~isnumeric(cond) && ~islogical(cond)) || isempty(cond) || ~all(cond(:))
        error('octassert:failed', 'assert (cond) failed');
    end
    return
end
expected = varargin{1};
if nargin >= 3
    tol = varargin{2};
    has_tol = true;
else
    tol = 0;
    has_tol = false;
end
[ok, why] = same_value(cond, expected, tol, has_tol);
if ~ok
    error('octassert:failed', 'ASSERT errors: %s', why);
end
end

function [ok, why] = same_value(A, B, tol, has_tol)
ok = false;
why = '';
if ischar(B)
    if ~ischar(A)
        why = ['Expected string, but observed ' class(A)];
    elseif ~isequal(size(A), size(B)) || ~all(A(:) == B(:))
        why = 'Strings don''t match';
    else
        ok = true;
    end
    return
end
if iscell(B)
    if ~iscell(A)
        why = ['Expected cell, but observed ' class(A)];
        return
    end
    if ndims(A) ~= ndims(B) || ~isequal(size(A), size(B))
        why = 'Dimensions don''t match';
        return
    end
    for k = 1:numel(B)
        [ok, why] = same_value(A{k}, B{k}, tol, has_tol);
        if ~ok
            why = ['Cell configuration error: ' why];
            return
        end
    end
    ok = true;
    return
end
if isa(B, 'function_handle')
    ok = isa(A, 'function_handle') && isequal(A, B);
    why = 'Function handles don''t match';
    return
end
if isstruct(B)
    if ~isstruct(A)
        why = ['Expected struct, but observed ' class(A)];
        return
    end
    fa = fieldnames(A);
    fb = fieldnames(B);
    if ~isequal(size(A), size(B)) || numel(fa) ~= numel(fb)
        why = 'Structure sizes don''t match';
        return
    end
    if ~isequal(sort(fa), sort(fb))
        why = 'Structure fieldname mismatch';
        return
    end
    for k = 1:numel(fb)
        [ok, why] = same_value({A.(fb{k})}, {B.(fb{k})}, tol, has_tol);
        if ~ok
            why = ['Structure configuration error: ' why];
            return
        end
    end
    ok = true;
    return
end
if ndims(A) ~= ndims(B) || ~isequal(size(A), size(B))
    why = sprintf('Dimensions don''t match: O(%s) E(%s)', ...
                  num2str(size(A)), num2str(size(B)));
    return
end
if ~has_tol
    if ~strcmp(class(A), class(B))
        why = ['Class ' class(A) ' != ' class(B)];
        return
    end
    if (isnumeric(A) || islogical(A)) && (isreal(A) ~= isreal(B))
        why = 'complex != real';
        return
    end
end
if ~(isnumeric(A) || islogical(A) || ischar(A)) || ~(isnumeric(B) || islogical(B))
    why = ['Cannot compare ' class(A) ' with ' class(B)];
    return
end
if isinteger(A) && isinteger(B)
    An = double(A);
    Bn = double(B);
else
    An = double(A);
    Bn = double(B);
    if any(isnan(real(An(:))) ~= isnan(real(Bn(:)))) || ...
            any(isnan(imag(An(:))) ~= isnan(imag(Bn(:))))
        why = '''NaN'' mismatch';
        return
    end
    infmis = ((isinf(real(An)) | isinf(real(Bn))) & (real(An) ~= real(Bn))) | ...
             ((isinf(imag(An)) | isinf(imag(Bn))) & (imag(An) ~= imag(Bn)));
    infmis = infmis & ~(isnan(real(An)) | isnan(imag(An)));
    if any(infmis(:))
        why = '''Inf'' mismatch';
        return
    end
    ra = real(An);
    rb = real(Bn);
    skip = ~isfinite(ra) & ~isfinite(rb);
    ra(skip) = 0;
    rb(skip) = 0;
    ia = imag(An);
    ib = imag(Bn);
    skip = ~isfinite(ia) & ~isfinite(ib);
    ia(skip) = 0;
    ib(skip) = 0;
    An = complex(ra, ia);
    Bn = complex(rb, ib);
end
if isscalar(tol)
    mtol = tol * ones(size(An));
else
    mtol = double(tol);
end
bad = (An ~= Bn) & (mtol == 0);
bad = bad | ((abs(An - Bn) > mtol) & (mtol > 0));
rel = mtol < 0;
if any(rel(:))
    bad = bad | ((Bn == 0) & (abs(An) > abs(mtol)) & rel);
    bad = bad | ((Bn ~= 0) & (abs(An - Bn) ./ abs(Bn) > abs(mtol)) & rel);
end
if any(bad(:))
    why = sprintf('%d element(s) differ', nnz(bad));
    return
end
ok = true;
end
